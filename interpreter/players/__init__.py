"""The players, for any ruleset: `bots` (the random and greedy players, and `make_bot`, which
makes any player from its name), `search` (information-set Monte Carlo tree search), `plan`
(a planning search for one seat's many decisions in a row, a patience above all) and `pimc`
(sampled deals, each solved with every card shown); `ties`, how they break ties between moves of
equal value. Each is seeded, so a game played by them
replays exactly; where the native engine plays, its C part does the same search
(interpreter/native/: search.py, plan.py, greedy.py, minimax.py), tested move for move against
the Python one here. The solvers they stand on, and the equilibrium player, are in solver/."""
