"""Training on Tinker: HALO's BrowserEnv as tinker-cookbook environments (docs/TINKER.md).

``render`` (observation -> ModelInput), ``env`` (the Env), ``browsers`` (bounded browser contexts), ``dataset``
(group builder, dataset, dataset builder), ``config`` (run settings -> ``rl.train.Config``), ``run`` (one training
run), ``local_completer`` (an offline stand-in for Tinker's sampling service).
"""
