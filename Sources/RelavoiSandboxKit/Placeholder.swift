// relavoi-sandbox engine.
