"""``wordvec serve``: models behind a JSON API and an explorer page (the optional extra
``wordvec[serve]``: Starlette on uvicorn). :mod:`~wordvec.serve.served` answers for a model,
:mod:`~wordvec.serve.app` is the HTTP face, :mod:`~wordvec.serve.openapi` describes it."""
