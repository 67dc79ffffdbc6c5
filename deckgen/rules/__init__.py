"""The rules engine: rule options and presets, the game state machine, agents and simulation."""
