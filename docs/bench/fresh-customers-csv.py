"""Turns `lockstep export --raw` output into new customers for `lockstep import` (docs/benchmarks.md, issue 29).

Keeps the generated customers (refs GEN-…), drops the columns the database maintains (id, version, updated_at,
updated_by) and renames each ref IMP-…, so that importing the file adds every row as a new customer beside the ones it
came from. Usage: python3 fresh-customers-csv.py export.csv import.csv
"""
import csv
import sys

with open(sys.argv[1], newline='', encoding='utf-8') as f, \
        open(sys.argv[2], 'w', newline='', encoding='utf-8') as g:
    rows = csv.DictReader(f)
    keep = [c for c in rows.fieldnames if c not in ('id', 'version', 'updated_at', 'updated_by')]
    out = csv.DictWriter(g, fieldnames=keep)
    out.writeheader()
    n = 0
    for row in rows:
        if row.get('external_ref', '').startswith('GEN-'):
            row = {k: row[k] for k in keep}
            row['external_ref'] = 'IMP-' + row['external_ref'][4:]
            out.writerow(row)
            n += 1
print(f'{n} customers', file=sys.stderr)
