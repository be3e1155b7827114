"""Plugins at run time: the registry of what they registered (``registry``), checks on what they
return (``checks``), and the isolation every call into a plugin goes through (``isolation``).
"""
