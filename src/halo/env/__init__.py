"""Browser environment: action space, observation, BrowserEnv."""
