"""The one error of the tensors package: a configuration that cannot be.

Its own module so that every other one can raise it without importing the
configuration (the weights check runs inside the configuration's own check).
"""

__all__ = ["ConfigError"]


class ConfigError(ValueError):
    """An impossible configuration; the message says what is allowed."""
