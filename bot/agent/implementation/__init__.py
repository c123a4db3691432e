"""``implement``: one phase of an accepted RFD turned into code, item by item.

* :mod:`.run` — the phase run: research → plan → one item at a time → summary;
* :mod:`.phase_work` — which phase, and its checklist (retries, amendments, failed items);
* :mod:`.item`, :mod:`.item_result` — one item's conversation, the model's verdict and the
  repository's own check;
* :mod:`.work_copy` — the copy the model works in, and the changes taken back as data;
* :mod:`.isolation`, :mod:`.unshare_setup` — the namespaces every command runs in;
* :mod:`.commit_guard` — what the run left in the worktree, checked before a commit;
* :mod:`.refine` — refine during implementation (code changes reviews ask for).
"""
