"""Media types, data: URLs and format signatures as the scanner reads them."""
