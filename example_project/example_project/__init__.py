"""The scrapy-charset example project: a demo site and a spider that crawls it."""
