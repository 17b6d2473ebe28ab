"""The item side: what the pipeline checks in every item field, and the alerts it raises.

- :mod:`.textcheck`: :func:`inspect_text` and :class:`TextReport`, the check of one string;
- :mod:`.mojibake`: the tables, the heuristic that finds damage, and the repairs;
- :mod:`.pipeline`: :class:`CharsetPipeline`, the check applied to every field of every item;
- :mod:`.alerts`: the rules that turn counts into alerts (measuring and alerting are apart);
- :mod:`.stamp`: :class:`CharsetItemStampMiddleware`, the response's decision on its items;
- :mod:`.monitors`: the Spidermon suite;
- :mod:`.config`: the item side's settings.
"""
