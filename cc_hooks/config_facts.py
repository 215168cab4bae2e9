"""A validated config as JSON facts, and the same config rebuilt from them without validation.

``facts_of`` walks the models' declared fields (the schema stays in ``config.py``); ``rebuild``
gives every field, the extra keys and the set of fields explicitly set back to
``model_construct``, so the result equals the validated model (``==``, ``model_fields_set``,
``model_extra``) and no default factory validates anything. Facts that do not fit the models
raise TypeError, ValueError or KeyError: the caller validates the file again.
"""

# No `from __future__ import annotations`: the walk reads the models' real annotations.

import typing
from typing import Any

from pydantic import BaseModel


def _model_in(annotation: Any) -> Any:
    """The model class ``annotation`` names, the model of a ``dict[str, Model]``'s values
    (as ``("dict", Model)``), or None for plain data."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if typing.get_origin(annotation) is dict:
        args = typing.get_args(annotation)
        if len(args) == 2 and isinstance(args[1], type) and issubclass(args[1], BaseModel):
            return ("dict", args[1])
    return None


def facts_of(model: BaseModel) -> dict:
    fields = {}
    for name, field in type(model).model_fields.items():
        value = getattr(model, name)
        kind = _model_in(field.annotation)
        if isinstance(kind, tuple):
            fields[name] = {key: facts_of(item) for key, item in value.items()}
        elif kind is not None:
            fields[name] = facts_of(value)
        else:
            fields[name] = value
    return {"fields": fields, "extra": dict(model.model_extra or {}), "set": sorted(model.model_fields_set)}


def rebuild(cls: type, facts: dict) -> Any:
    if not isinstance(facts, dict) or not isinstance(facts["fields"], dict) or not isinstance(facts["extra"], dict):
        raise TypeError("not config facts")
    values = {}
    for name, field in cls.model_fields.items():
        value = facts["fields"][name]
        kind = _model_in(field.annotation)
        if isinstance(kind, tuple):
            if not isinstance(value, dict):
                raise TypeError(f"{name} is no table")
            values[name] = {key: rebuild(kind[1], item) for key, item in value.items()}
        elif kind is not None:
            values[name] = rebuild(kind, value)
        else:
            values[name] = value
    if set(facts["extra"]) & set(values) or set(facts["fields"]) != set(values):
        raise ValueError("the facts do not fit the model")
    fields_set = facts["set"]
    if not isinstance(fields_set, list) or not all(isinstance(name, str) for name in fields_set):
        raise TypeError("fields set is no list of names")
    return cls.model_construct(_fields_set=set(fields_set), **values, **facts["extra"])
