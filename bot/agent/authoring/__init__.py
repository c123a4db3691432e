"""The conversations that write an RFD: explore, converge, draft (:mod:`.author`) and
refine with the rule of five (:mod:`.refine`)."""
