"""The HTML pages, one blueprint per area."""
