"""Developers' tools: the load, fault and cluster harnesses (``make loadtest``, ``make
cluster``, ``make faults``), the benchmarks (``make bench``), the estimate's simulated club
nights and the map of the code (``make map``). Not part of the site, not in the wheel; the
tests in ``tests/`` drive them."""
