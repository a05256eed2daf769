"""The policy app's HTML door: the category-map console (:mod:`~policy.views.maps`), the agency
rules console (:mod:`~policy.views.rules`) and the agency profile page
(:mod:`~policy.views.profiles`)."""
