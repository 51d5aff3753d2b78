"""The pure rule engines (no Django): one module per ruleset family, presets as data, one shared contract
in base.py; registry.py maps ruleset keys to presets."""
