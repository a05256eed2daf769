from csp.decorators import csp_update
from django.urls import path
from django.utils import translation
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from . import contracts, exports, review, schema  # noqa: F401  (schema registers the auth extension)


class SchemaView(SpectacularAPIView):
    """The OpenAPI document, in English unless ``?lang=cs`` asks otherwise: the contract with
    integrators must not change with the browser's language."""

    @extend_schema(exclude=True)  # the schema's own endpoint is not an operation of the API
    def get(self, request, *args, **kwargs):
        with translation.override(request.GET.get("lang") or "en"):
            return super().get(request, *args, **kwargs)


#: The contracts' part of the API (``config.api_urls`` mounts it with the registry's under ``api/v1/``).
urlpatterns = [
    path("schema/", SchemaView.as_view(), name="schema"),
    # Swagger UI: its script comes from a URL of its own (the split view), but it styles its
    # widgets inline, so this page alone allows inline styles (never inline scripts)
    path(
        "docs/",
        csp_update({"style-src": ["'unsafe-inline'"]})(SpectacularSwaggerSplitView.as_view(url_name="api:schema")),
        name="docs",
    ),
    path("contracts/", contracts.ContractListCreateView.as_view(), name="contracts"),
    path("contracts/<id:contract_id>/", contracts.ContractDetailView.as_view(), name="contract"),
    path("contracts/<id:contract_id>/proposals/", review.ProposalListView.as_view(), name="proposals"),
    path("contracts/<id:contract_id>/decisions/", review.DecisionsView.as_view(), name="decisions"),
    path(
        "contracts/<id:contract_id>/decisions/<uuid:batch>/undo/",
        review.DecisionUndoView.as_view(),
        name="decisions_undo",
    ),
    path("contracts/<id:contract_id>/manual-redactions/", review.ManualRedactionView.as_view(), name="manual"),
    path("contracts/<id:contract_id>/repeated-pages/", review.RepeatedPagesView.as_view(), name="repeated_pages"),
    path(
        "contracts/<id:contract_id>/pages/<int:page>/decide-like-earlier/",
        review.DecideLikeEarlierView.as_view(),
        name="decide_like_earlier",
    ),
    path("contracts/<id:contract_id>/approve/", review.ApproveView.as_view(), name="approve"),
    path("contracts/<id:contract_id>/return/", review.ReturnView.as_view(), name="return"),
    path("contracts/<id:contract_id>/retry/", contracts.RetryView.as_view(), name="retry"),
    path("contracts/<id:contract_id>/download/", contracts.DownloadView.as_view(), name="download"),
    path("contracts/<id:contract_id>/download/text/", contracts.TextDownloadView.as_view(), name="download_text"),
    path("contracts/<id:contract_id>/export/", exports.TextExportView.as_view(), name="text_export"),
    path("exports/", exports.TextExportsView.as_view(), name="exports"),
    path("exports/<str:job_id>/", exports.TextExportJobView.as_view(), name="export_job"),
    path("exports/<str:job_id>/download/", exports.TextExportDownloadView.as_view(), name="export_download"),
    path("contracts/<id:contract_id>/report/", contracts.ReportView.as_view(), name="report"),
    path("contracts/<id:contract_id>/events/", contracts.EventListView.as_view(), name="events"),
]
