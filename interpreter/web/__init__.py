"""The browser table (`cardrules serve`): people and bots at one table, each seat seeing only
what `engine.observe` shows it, with the rulebook beside the cards.

The parts, along the way a request travels: `store` (table files written atomically, read
back at start-up), `catalog` (the rulesets the server offers and their rulebooks), `limits`
(what the server allows: every number and size a stranger sends is checked against it before
any work), `tables` (a table: its game, seats, tokens, bots, one lock, live updates),
`thinkers` (the worker processes the bots think in, never the server's own threads), `views`
(what a seat may see, as template data and log lines), `replays` (saved records stepped
through), `app` (the routes), `serve` (the command). Nothing below this package imports it: the web table
uses the engine and the players, never the reverse. Starlette and uvicorn are imported only
here, so the other commands start as fast as before."""
