"""Tests of the load, fault and cluster harnesses in ``tools/load``."""
