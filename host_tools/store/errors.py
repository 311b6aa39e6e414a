"""The store's errors: a database the tool cannot use, a sitting it will not store."""


class DbError(Exception):
    """A database the tool cannot use, or a sitting it will not store: a message to act on."""


class Conflict(DbError):
    """A sitting whose id is stored with a log that is neither a prefix nor an extension."""

    def __init__(self, message, sitting_id):
        super().__init__(message)
        self.sitting_id = sitting_id
