"""One module per message convention: where a part's bytes are, and how to put them back."""
