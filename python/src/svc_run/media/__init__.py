"""Files in recorded values: the scanner, attachments, uploads and reading files back."""
