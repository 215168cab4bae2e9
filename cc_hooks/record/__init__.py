"""The stores: ledgers (SYMPTOMS.md, DECISIONS.md), trailers, dashboard, questions.

Nothing here knows about hooks. Modules are imported directly
(``from cc_hooks.record.symptoms import parse_symptoms``); this package imports
nothing so that importing one store does not pay for the others.
"""
