/* test_delayacct.c — the pure parts of src/kernel/delayacct.h: the text of the
 * kernel.task_delayacct sysctl, and the kernel command line's boot parameter that switches delay
 * accounting on. */
#include "config.h"

#include "delayacct.h"
#include "tap.h"

static void delayacct(void)
{
	is_int(delayacct_parse("1\n"), DELAYACCT_ON, "\"1\\n\" is on");
	is_int(delayacct_parse("0\n"), DELAYACCT_OFF, "\"0\\n\" is off");
	is_int(delayacct_parse("0"), DELAYACCT_OFF, "\"0\" without a newline is off");
	is_int(delayacct_parse("2\n"), DELAYACCT_ON, "any other number is on");
	is_int(delayacct_parse(""), DELAYACCT_UNKNOWN, "an empty file is unknown, not off");
	is_int(delayacct_parse("\n"), DELAYACCT_UNKNOWN, "a bare newline is unknown, not off");
	is_int(delayacct_parse("x\n"), DELAYACCT_UNKNOWN, "text that is no number is unknown");
	is_int(delayacct_parse("0x\n"), DELAYACCT_UNKNOWN, "a number followed by junk is unknown");
	is_int(delayacct_parse("99999999999999999999999\n"), DELAYACCT_UNKNOWN,
	       "a number out of range is unknown");
}

static void boot_delayacct(void)
{
	ok(!delayacct_boot_param(""), "an empty command line: off at boot");
	ok(!delayacct_boot_param("console=ttyS0 quiet psi=1\n"), "without delayacct: off at boot");
	ok(delayacct_boot_param("quiet delayacct psi=1\n"), "delayacct among the parameters: on at boot");
	ok(delayacct_boot_param("delayacct"), "delayacct alone, without a newline: on");
	ok(delayacct_boot_param("ro\tdelayacct=1 quiet"), "a parameter that starts with delayacct: on, as the kernel matches it");
	ok(!delayacct_boot_param("nodelayacct quiet"), "nodelayacct does not switch it on");
	ok(!delayacct_boot_param("mydelayacct x.delayacct=1"), "delayacct inside another parameter does not count");
	ok(!delayacct_boot_param("quiet -- delayacct"), "after --, delayacct is an argument of init, not the kernel's");
	ok(delayacct_boot_param("  delayacct -- --x"), "before -- it counts, leading spaces too");
}

int main(void)
{
	delayacct();
	boot_delayacct();
	return tap_done();
}
