"""The response side's Scrapy glue: which responses are decided, and what the crawl sees.

- :mod:`.decide`: :func:`decide`, the one function that takes a response to its outcome
  (left alone with a reason, or decided), shared by the middleware, ``scrapy charset`` and
  the audit;
- :mod:`.middleware`: :class:`CharsetMiddleware`, which applies that outcome to the crawl;
- :mod:`.decision`: :class:`EncodingDecision`, the record of one decision;
- :mod:`.unknown_type`: the MIME type browsers compute for an untyped response;
- :mod:`.interop`: what Scrapy's feed iterators need to read the responses;
- :mod:`.config`: the response side's settings.

The algorithms themselves are pure and live apart: :mod:`scrapy_charset.sniffing` (the
HTML Standard's encoding sniffing) and :mod:`scrapy_charset.whatwg` (the Encoding
Standard).
"""
