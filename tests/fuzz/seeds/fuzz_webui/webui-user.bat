@echo off
rem # fixture-gpu: GTX 1050 Ti
set PYTHON=
set COMMANDLINE_ARGS=--medvarm --no-half --precision full
call webui.bat
