#!/usr/bin/env python3
"""Summarise a hyperfine --export-json file for the bench/ scripts: per command the
median wall time and the mean CPU time (user + system), and each one's ratio to the
first command (the baseline). Usage: hyperfine-summary.py FILE [TITLE]"""
import json
import sys

results = json.load(open(sys.argv[1]))["results"]
if len(sys.argv) > 2:
    print(sys.argv[2])
base = results[0]
base_cpu = base["user"] + base["system"]
print(f"  {'':28} {'wall median':>12} {'min':>9} {'max':>9} {'cpu mean':>10} "
      f"{'wall/base':>10} {'cpu/base':>9}")
for r in results:
    cpu = r["user"] + r["system"]
    print(f"  {r['command']:28} {r['median']:12.4f} {r['min']:9.4f} {r['max']:9.4f} {cpu:10.4f} "
          f"{r['median'] / base['median']:10.3f} {cpu / base_cpu:9.3f}")
