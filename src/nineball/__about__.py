"""Version of the nineball package."""

__version__ = "0.1.0"
