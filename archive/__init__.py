"""The tournament archive app: export, import and verification. Its API and the
document's format are described in :mod:`archive.api`."""
