"""Every ruleset as a game for agent libraries: `openspiel` (a `pyspiel.Game`), `pettingzoo`
(an AEC environment), `vector` (`VectorGames`: n games stepped in one call, for learners that
train on batches) and `gymnasium` (the same batch as a Gymnasium vector environment), over one
shared `encoding` (action ids, observation tensors, returns; on the native engine the tensor is
written by C: `c_observations`).

The libraries are optional extras: `pip install 'cardrules[openspiel]'` and
`pip install 'cardrules[pettingzoo]'` (which brings Gymnasium). Importing an adapter without its
library raises an ImportError that names the extra; `encoding` and `vector` need NumPy only."""
