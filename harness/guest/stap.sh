#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Guest side of the SystemTap check (make check, default variant): run
# the probe module that harness/stap-modules.sh built from
# harness/stap/markers.stp with staprun, start it before test_markers is
# loaded (its probes wait, by name), load the module, pass its markers,
# unload and reload it while the script runs, and read what the probes
# printed.  check.sh on the host counts the "harness: stap: ok:" and
# "FAIL:" lines, and wants the "done" line.
D=/sys/kernel/debug
M=$D/markers/markers
P=/sys/module/test_markers/parameters/pass
out=/tmp/stap.out

say() {
	echo "harness: stap: $*"
}

failed=0
check() {
	what=$1
	shift
	if "$@"; then
		say "ok: $what"
	else
		say "FAIL: $what"
		failed=1
	fi
}

# wait_for SECONDS COMMAND...: until COMMAND succeeds, at most SECONDS.
wait_for() {
	n=$(($1 * 10))
	shift
	while ! "$@"; do
		n=$((n - 1))
		[ $n -gt 0 ] || return 1
		sleep 0.1
	done
}

# printed LINE: the probes printed LINE (stapio writes it to $out).
printed() {
	grep -qxF "$1" $out 2>/dev/null
}

# probes OWNER N: debugfs lists test_markers_event as OWNER's (- while
# no module has it), with N probes.
probes() {
	grep -q "^test_markers_event $1 .* probes=$2 " $M
}

running() {
	kill -0 "$pid" 2>/dev/null
}

[ -d $D/markers ] || mount -t debugfs nodev $D
modprobe -r test_markers marker-example 2>/dev/null
staprun -o $out /stap/stap_markers.ko > /tmp/staprun.log 2>&1 &
pid=$!
check "staprun starts the probe module; its probes wait for test_markers" \
	wait_for 120 probes - 2
check "test_markers loads" modprobe test_markers
check "... its marker takes the waiting probes" probes test_markers 2
check "init text: test_markers_event 10" wait_for 60 printed "wild test_markers_event 10"
check "a .format() probe: test_markers_module 2 of init" \
	wait_for 60 printed 'format test_markers_module "value %d" 2'
check "... and _trace_mark()'s test_markers_module_init 4" \
	wait_for 60 printed 'format test_markers_module_init "value %d" 4'
echo 41 > $P
check "a wildcard probe: test_markers_event 41" \
	wait_for 60 printed "wild test_markers_event 41"
check "... and the .format() probe" \
	wait_for 60 printed 'format test_markers_event "value %d" 41'
check "rmmod test_markers while the script runs" modprobe -r test_markers
check "... its __exit marker: test_markers_exit 1" \
	wait_for 60 printed "wild test_markers_exit 1"
check "... the probes wait again" probes - 2
check "... staprun runs on" running
check "test_markers loads again" modprobe test_markers
echo 42 > $P
check "... test_markers_event 42" wait_for 60 printed "wild test_markers_event 42"
check "marker-example loads" modprobe marker-example
echo > $D/marker-example/trigger
check "a 64-bit %llu: example_timer 1, from a timer" \
	wait_for 60 printed "u64 example_timer 1"
kill -INT "$pid"
check "staprun stops on SIGINT" wait_for 120 eval '! running'
check "... the probe module is gone" test ! -d /sys/module/stap_markers
check "... and its probes" probes test_markers 0
modprobe -r test_markers marker-example
if [ $failed = 1 ]; then
	say "staprun said:"
	sed 's/^/  /' /tmp/staprun.log
	say "the probes printed:"
	sed 's/^/  /' $out
fi
say "printed $(wc -l < $out) lines"
say done
