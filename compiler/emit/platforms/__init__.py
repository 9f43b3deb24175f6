"""Pure emitters for the platforms where wargames are played online: a Foundry VTT compendium's
RollTable sources (`foundry`), a Lua 5.2 module for Tabletop Simulator (`tts`, its runtime in
`tts_runtime.lua`, its literals in `lua`), a VASSAL module extension's files (`vassal`). Model in,
`{relative path: text}` out; packing and zipping are `compiler/tools/platforms.py`'s.
"""
