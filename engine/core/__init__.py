"""The rules engine: the game and its run state, the turn loop, actions, the scheduler, the ECS world,
the plugin registry, presets and content kinds, and the run's random streams."""
