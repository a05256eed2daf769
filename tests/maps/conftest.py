import django_rq
import pytest
from rq import SimpleWorker


@pytest.fixture
def preview_worker():
    """Runs the queued map-preview jobs: real RQ on the test Redis, in this process (a
    ``SimpleWorker`` in burst mode), so the job sees the test's database transaction."""
    queue = django_rq.get_queue("low")  # owned jobs: the low-priority queue
    queue.empty()

    def run() -> None:
        SimpleWorker([queue], connection=queue.connection).work(burst=True)

    yield run
    queue.empty()
