"""The content policy: capture-off stripping, the redactor, and the table of content attributes."""
