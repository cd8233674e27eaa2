x() { xdotool "$@"; }
x mousemove 290 258 click 1; sleep 1
for i in $(seq 1 30); do x key Down; sleep 0.15; done
for i in $(seq 1 100); do x key Page_Down; sleep 0.05; done
sleep 1; x key End; sleep 3; x key Home; sleep 2
x mousemove 1067 285 click 1; sleep 2
x mousemove 1161 285 click 1; sleep 2
x mousemove 980 285 click 1; sleep 1
x mousemove 566 183 click 1; x type --delay 150 ab; sleep 2; x type --delay 150 c; sleep 2
x key ctrl+a BackSpace; sleep 2; x type --delay 150 "zürich"; sleep 2; x key ctrl+a BackSpace; sleep 2
x mousemove 726 226 click 1; sleep 4; x mousemove 726 226 click 1; sleep 4
x mousemove 290 280 click 1; sleep 1
for i in $(seq 1 50); do x key Page_Down; sleep 0.05; done
sleep 1
