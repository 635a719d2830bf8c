# Shortcuts over scripts/ (the README's two commands are scripts/run-example.sh and scripts/test.sh).
.PHONY: web test example
web:
	scripts/build-web.sh
test:
	scripts/test.sh
example:
	scripts/run-example.sh
