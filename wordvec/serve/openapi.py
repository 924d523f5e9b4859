"""The OpenAPI 3 description of ``wordvec serve``'s JSON API (``/api/openapi.json``), built
from one table of its calls, the same table ``docs/serve.md`` is written from."""

from __future__ import annotations

from typing import Any

MODEL = ("model", "string", False, "The model's name (its file's name; /api/models lists them) "
         "[the first].")  # fmt: skip
CALLS: dict[str, tuple[str, list[tuple[str, str, bool, str]]]] = {
    "neighbors": ("The k words nearest by cosine to the sum of the words (unit vectors) minus "
                  "the negative ones; the query's words left out.", [
        ("word", "words", False, "A word, or several (comma-separated or repeated)."),
        ("positive", "words", False, "More words to add."),
        ("negative", "words", False, "Words to subtract."),
        ("k", "integer", False, "How many [10]."),
    ]),
    "analogy": ("3CosAdd: the words nearest to positive minus negative (a:b::c:? is "
                "positive=b,c&negative=a).", [
        ("positive", "words", True, "Words to add."),
        ("negative", "words", True, "Words to subtract."),
        ("k", "integer", False, "How many [10]."),
    ]),
    "similarity": ("The cosine similarity of two words.", [
        ("a", "string", True, "A word."), ("b", "string", True, "Another."),
    ]),
    "n_similarity": ("The cosine of the means of two lists of words' vectors (gensim's "
                     "n_similarity).", [
        ("a", "words", True, "Words."), ("b", "words", True, "Other words."),
    ]),
    "vector": ("A word's vector; a subword model's also for a word outside its vocabulary "
               "(in_vocabulary: false).", [("word", "string", True, "The word.")]),
    "complete": ("Words that start with a prefix, most frequent first.", [
        ("prefix", "string", True, "The start."), ("limit", "integer", False, "How many [10]."),
    ]),
    "projection": ("Words' unit vectors on their first principal components: a pasted list, or "
                   "a word and its k neighbours.", [
        ("words", "words", False, "The words to place."),
        ("word", "string", False, "Else: a word whose neighbourhood to place."),
        ("k", "integer", False, "Its neighbours [15]."),
        ("dims", "integer", False, "2 or 3 [2]."),
    ]),
    "predict": ("A classifier's k most probable labels for a text, with their probabilities.", [
        ("text", "string", True, "The text."), ("k", "integer", False, "How many [1]."),
    ]),
    "infer": ("A doc2vec model's vector for a text and the k training documents nearest it.", [
        ("text", "string", True, "The text (words split on spaces)."),
        ("k", "integer", False, "How many documents [10]."),
    ]),
}  # fmt: skip
"""Each call: what it answers, and its parameters (name, type, required, description)."""


def openapi(limits: Any) -> dict:
    """The API's OpenAPI 3.1 description, with the server's ``limits``."""
    paths: dict[str, Any] = {
        "/api/models": {"get": {"summary": "The models served and the request limits.",
                                "responses": {"200": {"description": "The models."}}}},
    }  # fmt: skip
    for name, (summary, params) in CALLS.items():
        parameters = []
        for param, kind, required, description in [*params, MODEL]:
            schema = (
                {"type": "array", "items": {"type": "string"}}
                if kind == "words"
                else {"type": kind}
            )
            parameters.append(
                {
                    "name": param,
                    "in": "query",
                    "required": required,
                    "description": description,
                    "schema": schema,
                    **({"style": "form", "explode": False} if kind == "words" else {}),
                }
            )
        operation = {
            "summary": summary,
            "parameters": parameters,
            "responses": {"200": {"description": "The answer, as JSON."},
                          "4XX": {"description": "{\"error\": what is wrong} (an unknown word: "
                                  "also \"closest\", known words spelled like it)."}},
        }  # fmt: skip
        paths[f"/api/{name}"] = {
            "get": operation,
            "post": {
                **operation,
                "description": "The same parameters as a JSON object in the body.",
            },
        }
    return {
        "openapi": "3.1.0",
        "info": {"title": "wordvec serve", "version": "1",
                 "description": f"Limits: {dict(limits._asdict())}."},
        "paths": paths,
    }  # fmt: skip
