"""The studio: write, read, play and measure a card game on one page (cardrules studio)."""
