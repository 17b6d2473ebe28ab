"""Scrapy commands: ``scrapy charset`` (registered through the ``scrapy.commands`` entry point)."""
