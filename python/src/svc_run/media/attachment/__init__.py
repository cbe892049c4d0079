"""Files given by the application: ``Attachment`` and recorded files (``record_file``)."""
