"""gunicorn's settings for a club server's node: /etc/ginclub/gunicorn.conf.py
(docs/club-server.md). Each node's address and control socket are on its command line
(ginclub-node@.service), so that several nodes can run on one machine."""

wsgi_app = "config.wsgi:application"
# About 2 x the cores, each with a few threads (a node holds workers x threads database
# connections); HAProxy sends a node at most 16 requests at once (haproxy.cfg, maxconn).
workers = 3
threads = 2
timeout = 60
graceful_timeout = 20
# Errors to stderr (the journal: journalctl -u ginclub-node@8001). No access log: HAProxy
# logs every request, without its query string.
errorlog = "-"
loglevel = "warning"
accesslog = None
