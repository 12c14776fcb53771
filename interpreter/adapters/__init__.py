"""Every ruleset as a game for agent libraries: `openspiel` (a `pyspiel.Game`) and `pettingzoo`
(an AEC environment), over one shared `encoding` (action ids, observation tensors, returns).

The two libraries are optional extras: `pip install 'cardrules[openspiel]'` and
`pip install 'cardrules[pettingzoo]'`. Importing an adapter without its library raises an
ImportError that names the extra; `encoding` needs neither."""
