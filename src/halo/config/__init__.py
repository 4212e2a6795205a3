"""config layer: where config files are and how they are read (files), overrides from ``--set`` and flags
(overrides), and the checked settings classes every file's schema is made of (settings). Nothing here knows a
particular file: each schema lives beside what reads it."""
