"""The contracts app's HTML door: contract pages and the map preview of the agency's contracts
(:mod:`~contracts.views.pages`), the review page and its JSON endpoints
(:mod:`~contracts.views.review`) and the webhook pages (:mod:`~contracts.views.webhooks`). Each
view parses the request, calls one service or selector and renders."""
