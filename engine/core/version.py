"""The engine's version, in one place (the package metadata reads it too)."""

VERSION = "0.1.0"
