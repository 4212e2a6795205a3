"""Rollouts on Ray: browser workers on any number of machines, the same rollout code as the local path.

A ``RolloutWorker`` is a Ray actor that owns one ``BrowserPool`` (one Chromium) and, when the tasks run on
REAL-local, its own ``SitesServer`` (REAL-local on its node's loopback: a worker on another machine cannot reach the
driver's). It runs ``rollout.run_group`` (the one rollout function) for each unit it is sent, ``n`` episodes of one
task (at most ``grpo.parallel`` at once, in waves past it), and returns the ``Episode`` objects (plain
dataclasses; screenshots are bytes). For MCTS (``halo train mcts --ray``) a unit is one whole search
(``MCTSExplorer`` on a branchable env of the worker's browser, restores by fork on its own REAL-local); the tree
comes back without its browser snapshots
(``mcts.portable_result``) for the driver's DPO update.

The policy is reached from the workers either as the mode's OpenAI/vLLM server (``OpenAIPolicy``, the server config
travels with each unit, so a hot-loaded adapter's new name reaches the workers), or, for in-process modes (``tiny``,
``hf``), through a ``PolicyActor``: a Ray actor that hosts the model and serves ``complete`` calls. Its concurrent
calls meet in the in-process batcher (``max_batch``) as the episodes of one process do. GRPO with an in-process
mode learns in the driver and pushes the adapter's weights to the actor after each update (``sync_weights``), with
their adapter version, which the actor's completions record (a vLLM unit's steps record the version of the adapter
name it was sent with): asynchronous GRPO (``grpo.max_staleness``) counts each step's staleness from it.

``RayRollouts`` (the dispatcher) sends units to idle workers, at most ``per_worker`` at a time each. A unit whose
worker died (or missed the unit's deadline: the worker is then killed) is re-run on another worker, at most
``retries`` times; past that its episodes come back errored with the reason. A lost policy actor is a
``PolicyLost`` error for the whole run. Every wait is bounded (``unit_timeout_s``, ``call_timeout_s``).
"""
