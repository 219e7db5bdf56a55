"""One module per pair or pair family (Geometric Tools' layout: ``dist_segment_segment``,
``intr_ray_aabb``...). Each registers its functions with :func:`algorithms.registry.register`
on import; :func:`algorithms.registry.load_all` imports every module here."""
