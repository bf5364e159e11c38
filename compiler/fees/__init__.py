"""Fees: plans per route, the reference evaluator, and the generator of the navlaw_fees module."""
