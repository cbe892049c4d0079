"""The scanner's walks over positioned JSON text and structured values, and what they record."""
