"""A run's state as plain data: components, the ECS world, the spatial index that owns positions, the
run state, random streams, the scheduler, requests, the remembered items and the typed events.
"""
