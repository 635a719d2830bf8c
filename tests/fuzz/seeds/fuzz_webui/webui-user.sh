#!/bin/bash
# fixture-gpu: RTX 3060 12GB
#export COMMANDLINE_ARGS=""
export COMMANDLINE_ARGS="--xformers --lowvram --medvram --always-batch-cond-uncond"
