/*
 * jail.c -- the grader's supervisor: runs one command under limits and makes sure
 * nothing it started outlives it. Built by tests/grade/sandbox.sh; trusted code.
 *
 *   jail -t SECONDS [-u UID] [-c CPU_S] [-m MB] [-p NPROC] [-f MB] [-n NOFILE]
 *        [-M MB] [-P NPROC] [-x FD]... -- COMMAND ARG...
 *   jail -Q [-M MB] [-P NPROC]
 *
 *   -t S     wall-clock deadline in seconds (a decimal, over 0: a jail without a
 *            deadline is refused): then the whole tree is killed
 *   -u UID   run COMMAND as UID (and gid UID, no supplementary groups); needs root.
 *            Pick a UID no other process uses: at the end every process of UID is
 *            killed, wherever it went (setsid, double fork), and its System V IPC
 *            objects (shared memory, semaphores, message queues) are removed
 *   -c, -m, -p, -f, -n   RLIMIT_CPU (s), RLIMIT_AS (MiB), RLIMIT_NPROC,
 *            RLIMIT_FSIZE (MiB), RLIMIT_NOFILE: each process of COMMAND's tree on
 *            its own (RLIMIT_NPROC counts the processes of COMMAND's uid)
 *   -M MB    memory of the whole tree together, swap none: a cgroup of its own
 *   -P N     processes of the whole tree together: a cgroup of its own
 *   -x FD    keep FD open for COMMAND (every other descriptor above 2 is closed)
 *   -Q       no command: says, on one line, whether -M and -P can hold here
 *            (creates the cgroup as a run would, removes it); exit 0 when they
 *            can, 1 when not
 * Always: RLIMIT_CORE 0, and RLIMIT_MSGQUEUE 0 (no POSIX message queue can be
 * created: one would outlive the run).
 *
 * The cgroup: version 2 where /sys/fs/cgroup has one with the memory and pids
 * controllers that jail can delegate (memory.max, memory.swap.max = 0,
 * pids.max), else version 1 hierarchies of those controllers
 * (memory.limit_in_bytes, memory.memsw.limit_in_bytes when swap is accounted,
 * pids.max): a directory chalk-jail.UID.PID beside jail's own cgroup, which
 * COMMAND joins before it runs, whose members are killed at the end, then removed.
 * A cgroup that cannot be made (a container whose /sys/fs/cgroup is read-only)
 * makes jail fail (125): sandbox.sh asks -Q first and says what held.
 *
 * COMMAND's stdin is /dev/null; its stdout and stderr are jail's (point them at
 * files: a file, unlike a pipe, cannot hold a reader hostage). Exit status: the
 * command's, 128+N when a signal N ended it, 124 when the deadline did, 125 when
 * jail itself failed or refused its arguments (with a message).
 *
 * How the tree is ended: jail is a child subreaper (orphans of the tree are
 * reparented to it, not to init), COMMAND leads its own process group, and after
 * it ends (or at the deadline) jail kills that group, every member of its
 * cgroups, then every process of UID (with -u: a helper that takes UID and calls
 * kill(-1, SIGKILL) until none is left), then any child still reparented to it
 * (found in /proc), and reaps them all. Under bubblewrap the command is also PID
 * 1's child in a PID namespace: when bwrap ends, the kernel kills the namespace.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
    fprintf(stderr, "jail: %s: %s\n", what, strerror(errno));
    _exit(125);
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void sleep_ms(long ms)
{
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

static void set_limit(int resource, rlim_t value)
{
    struct rlimit r = {value, value};
    if (setrlimit(resource, &r) != 0)
        die("setrlimit");
}

/* The number in option -opt's argument, refused (exit 125, a message) unless it is
 * a whole decimal number in [lo, hi]. */
static double number(int opt, const char *arg, double lo, double hi)
{
    char *end;
    errno = 0;
    double v = strtod(arg, &end);
    if (errno != 0 || end == arg || *end != '\0' || !isfinite(v) || v < lo || v > hi) {
        fprintf(stderr, "jail: -%c %s: not a number from %g to %g\n", opt, arg, lo, hi);
        exit(125);
    }
    return v;
}

/* ---- files -------------------------------------------------------------------- */

/* Reads up to n-1 bytes of path into buf; returns the length, -1 on error. */
static ssize_t read_text(const char *path, char *buf, size_t n)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t got = 0, r;
    while ((size_t)got < n - 1 && (r = read(fd, buf + got, n - 1 - (size_t)got)) > 0)
        got += r;
    close(fd);
    buf[got] = '\0';
    return got;
}

static int write_text(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t w = write(fd, text, strlen(text));
    int e = errno;
    close(fd);
    errno = e;
    return w == (ssize_t)strlen(text) ? 0 : -1;
}

/* Whether comma- or space-separated list holds word. */
static int has_word(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; (p = strstr(p, word)) != NULL; p += n)
        if ((p == list || p[-1] == ',' || p[-1] == ' ') && (p[n] == '\0' || p[n] == ',' || p[n] == ' ' || p[n] == '\n'))
            return 1;
    return 0;
}

/* ---- processes ------------------------------------------------------------------ */

/* Calls fn(pid, text of /proc/PID/FILE, arg) for every process; stops early when
 * fn returns non-zero, and returns that. */
static int each_process(const char *file, int (*fn)(long, char *, void *), void *arg)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    int r = 0;
    while (d != NULL && r == 0 && (e = readdir(d)) != NULL) {
        char path[300], buf[2048];
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/%s", e->d_name, file);
        if (read_text(path, buf, sizeof buf) <= 0)
            continue;
        r = fn(atol(e->d_name), buf, arg);
    }
    if (d != NULL)
        closedir(d);
    return r;
}

/* A process whose real, effective or saved uid is *(uid_t *)arg, from its status
 * (readable even for a non-dumpable process). */
static int has_uid(long pid, char *status, void *arg)
{
    char *u = strstr(status, "\nUid:");
    unsigned long r, ef, sv, uid = *(uid_t *)arg;
    (void)pid;
    return u != NULL && sscanf(u + 5, "%lu %lu %lu", &r, &ef, &sv) == 3 &&
           (r == uid || ef == uid || sv == uid);
}

/* Kills a process whose parent is jail, and its process group (a fork bomb that
 * called setsid keeps its children in its own group), from its stat (the name
 * may hold spaces and parentheses: the fields after the last ')' are parsed). */
static int kill_if_child(long pid, char *stat, void *arg)
{
    char *paren = strrchr(stat, ')');
    int ppid = 0, pgrp = 0;
    if (paren != NULL && sscanf(paren + 1, " %*c %d %d", &ppid, &pgrp) == 2 &&
        ppid == *(pid_t *)arg) {
        if (pgrp > 1 && pgrp != getpgrp())
            kill(-pgrp, SIGKILL);
        kill((pid_t)pid, SIGKILL);
    }
    return 0;
}

/* Kills every process of uid from a helper that takes that uid (jail runs as
 * root): kill(-1) reaches exactly the processes it may signal. Rounds go on,
 * reaping in between, until /proc shows no process of uid. */
static void kill_uid(uid_t uid)
{
    for (int round = 0; round < 200 && each_process("status", has_uid, &uid); round++) {
        pid_t h = fork();
        if (h < 0)
            return;
        if (h == 0) {
            if (setgroups(0, NULL) != 0 || setgid(uid) != 0 || setuid(uid) != 0)
                _exit(2);
            kill(-1, SIGKILL);
            _exit(0);
        }
        waitpid(h, NULL, 0);
        while (waitpid(-1, NULL, WNOHANG) > 0) {
        }
        if (round > 0)
            sleep_ms(1);
    }
}

/* Kills every process whose parent is jail (orphans reparented to the subreaper)
 * and reaps; returns when jail has no child left or after about two seconds. */
static void reap_all(void)
{
    pid_t self = getpid();
    for (int round = 0; round < 400; round++) {
        while (waitpid(-1, NULL, WNOHANG) > 0) {
        }
        if (waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD)
            return;
        each_process("stat", kill_if_child, &self);
        sleep_ms(5);
    }
}

/* Removes the System V IPC objects (shared memory, semaphore sets, message
 * queues) whose owner or creator is uid: they would outlive the run. */
static void remove_ipc(uid_t uid)
{
    static const char *files[] = {"/proc/sysvipc/shm", "/proc/sysvipc/sem", "/proc/sysvipc/msg"};
    for (int k = 0; k < 3; k++) {
        FILE *f = fopen(files[k], "r");
        char line[512];
        int col_id = -1, col_uid = -1, col_cuid = -1;
        if (f == NULL)
            continue;
        if (fgets(line, sizeof line, f) != NULL) { /* the header names the columns */
            int i = 0;
            for (char *w = strtok(line, " \n"); w != NULL; w = strtok(NULL, " \n"), i++) {
                if (strcmp(w, "shmid") == 0 || strcmp(w, "semid") == 0 || strcmp(w, "msqid") == 0)
                    col_id = i;
                else if (strcmp(w, "uid") == 0)
                    col_uid = i;
                else if (strcmp(w, "cuid") == 0)
                    col_cuid = i;
            }
        }
        while (col_id >= 0 && col_uid >= 0 && fgets(line, sizeof line, f) != NULL) {
            long id = -1, u = -1, cu = -1, i = 0;
            for (char *w = strtok(line, " \n"); w != NULL; w = strtok(NULL, " \n"), i++) {
                if (i == col_id)
                    id = atol(w);
                else if (i == col_uid)
                    u = atol(w);
                else if (i == col_cuid)
                    cu = atol(w);
            }
            if (id < 0 || (u != (long)uid && cu != (long)uid))
                continue;
            if (k == 0)
                shmctl((int)id, IPC_RMID, NULL);
            else if (k == 1)
                semctl((int)id, 0, IPC_RMID);
            else
                msgctl((int)id, IPC_RMID, NULL);
        }
        fclose(f);
    }
}

/* ---- the cgroup of a run ------------------------------------------------------------ */

enum { CG_MEM, CG_PIDS };
static struct {
    char dir[2][PATH_MAX + 64]; /* the run's cgroup for memory, for pids ("" when none) */
    int v2;
    char how[2][PATH_MAX + 256]; /* what holds, or why not */
    char v2_why[PATH_MAX + 128]; /* why version 2 did not do (when there is one) */
} cg;

/* The directory of jail's own cgroup in the hierarchy of controller (NULL: the
 * version 2 one) into out; 0 when found. */
static int own_cgroup(const char *controller, char *out, size_t n)
{
    char info[16384], mine[8192];
    if (read_text("/proc/self/mountinfo", info, sizeof info) <= 0 ||
        read_text("/proc/self/cgroup", mine, sizeof mine) <= 0)
        return -1;
    /* our path: "0::/path" (version 2) or "N:memory,...:/path" */
    char path[PATH_MAX] = "";
    for (char *l = strtok(mine, "\n"); l != NULL; l = strtok(NULL, "\n")) {
        char *a = strchr(l, ':'), *b = a != NULL ? strchr(a + 1, ':') : NULL;
        if (b == NULL)
            continue;
        *b = '\0';
        if (controller == NULL ? (strcmp(l, "0") == 0 && a[1] == '\0') : has_word(a + 1, controller)) {
            snprintf(path, sizeof path, "%s", b + 1);
            break;
        }
    }
    if (path[0] != '/')
        return -1;
    /* the mount: "ID PARENT MAJ:MIN ROOT POINT OPTS... - TYPE SOURCE SUPER" */
    for (char *l = strtok(info, "\n"); l != NULL; l = strtok(NULL, "\n")) {
        char root[PATH_MAX], point[PATH_MAX], type[64], super[512];
        char *dash = strstr(l, " - ");
        if (dash == NULL || sscanf(l, "%*s %*s %*s %4095s %4095s", root, point) != 2 ||
            sscanf(dash + 3, "%63s %*s %511s", type, super) != 2)
            continue;
        if (controller == NULL ? strcmp(type, "cgroup2") != 0
                               : strcmp(type, "cgroup") != 0 || !has_word(super, controller))
            continue;
        size_t r = strlen(root);
        const char *rest = path;
        if (strcmp(root, "/") != 0) { /* a bind mount of a subtree (a container) */
            if (strncmp(path, root, r) != 0 || (path[r] != '/' && path[r] != '\0'))
                continue;
            rest = path + r;
        }
        snprintf(out, n, "%s%s", point, strcmp(rest, "/") == 0 ? "" : rest);
        return 0;
    }
    return -1;
}

static void cg_name(char *out, size_t n, const char *parent, long uid)
{
    snprintf(out, n, "%s/chalk-jail.%ld.%ld", parent, uid, (long)getpid());
}

/* Writes value into file of dir; 0 on success. */
static int cg_set(const char *dir, const char *file, long long value)
{
    char path[PATH_MAX + 96], text[32];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    snprintf(text, sizeof text, "%lld", value);
    return write_text(path, text);
}

static int cg_exists(const char *dir, const char *file)
{
    char path[PATH_MAX + 96];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    return access(path, F_OK) == 0;
}

/* Version 2: one cgroup with memory and pids; 0 when every limit asked for holds. */
static int cg_make_v2(long mem_mb, long nproc, long uid)
{
    char parent[PATH_MAX], text[512], path[PATH_MAX + 64];
    if (own_cgroup(NULL, parent, sizeof parent) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/cgroup.controllers", parent);
    if (read_text(path, text, sizeof text) < 0 || (mem_mb > 0 && !has_word(text, "memory")) ||
        (nproc > 0 && !has_word(text, "pids"))) {
        snprintf(cg.v2_why, sizeof cg.v2_why, "cgroup v2 without the memory and pids controllers");
        return -1;
    }
    snprintf(path, sizeof path, "%s/cgroup.subtree_control", parent);
    if (read_text(path, text, sizeof text) < 0 ||
        (mem_mb > 0 && !has_word(text, "memory") && write_text(path, "+memory") != 0) ||
        (nproc > 0 && !has_word(text, "pids") && write_text(path, "+pids") != 0)) {
        /* read-only (a container), or processes in our own cgroup keep it from delegating */
        snprintf(cg.v2_why, sizeof cg.v2_why, "cgroup v2: %s: %s", path, strerror(errno));
        return -1;
    }
    char dir[PATH_MAX + 64];
    cg_name(dir, sizeof dir, parent, uid);
    if (mkdir(dir, 0755) != 0) {
        snprintf(cg.v2_why, sizeof cg.v2_why, "cgroup v2: %s: %s", parent, strerror(errno));
        return -1;
    }
    int ok = (mem_mb <= 0 || (cg_set(dir, "memory.max", (long long)mem_mb << 20) == 0 &&
                              (!cg_exists(dir, "memory.swap.max") || cg_set(dir, "memory.swap.max", 0) == 0))) &&
             (nproc <= 0 || cg_set(dir, "pids.max", nproc) == 0);
    if (!ok) {
        rmdir(dir);
        return -1;
    }
    cg.v2 = 1;
    if (mem_mb > 0) {
        snprintf(cg.dir[CG_MEM], sizeof cg.dir[0], "%s", dir);
        snprintf(cg.how[CG_MEM], sizeof cg.how[0], "cgroup v2 memory.max%s",
                 cg_exists(dir, "memory.swap.max") ? ", memory.swap.max 0" : "");
    }
    if (nproc > 0) {
        snprintf(cg.dir[CG_PIDS], sizeof cg.dir[0], "%s", dir);
        snprintf(cg.how[CG_PIDS], sizeof cg.how[0], "cgroup v2 pids.max");
    }
    return 0;
}

/* Version 1: a cgroup in the hierarchy of controller k; 0 when it holds. */
static int cg_make_v1(int k, long value, long uid)
{
    const char *controller = k == CG_MEM ? "memory" : "pids";
    char parent[PATH_MAX], dir[PATH_MAX + 64];
    if (own_cgroup(controller, parent, sizeof parent) != 0) {
        snprintf(cg.how[k], sizeof cg.how[0], "none (%s)", cg.v2_why[0] != '\0' ? cg.v2_why : "no cgroup here");
        return -1;
    }
    cg_name(dir, sizeof dir, parent, uid);
    if (mkdir(dir, 0755) != 0) {
        snprintf(cg.how[k], sizeof cg.how[0], "none (%s: %s)", parent, strerror(errno));
        return -1;
    }
    int ok, swap = 0;
    if (k == CG_MEM) {
        ok = cg_set(dir, "memory.limit_in_bytes", (long long)value << 20) == 0;
        swap = cg_exists(dir, "memory.memsw.limit_in_bytes");
        ok = ok && (!swap || cg_set(dir, "memory.memsw.limit_in_bytes", (long long)value << 20) == 0);
    } else {
        ok = cg_set(dir, "pids.max", value) == 0;
    }
    if (!ok) {
        snprintf(cg.how[k], sizeof cg.how[0], "none (%s: %s)", dir, strerror(errno));
        rmdir(dir);
        return -1;
    }
    snprintf(cg.dir[k], sizeof cg.dir[0], "%s", dir);
    snprintf(cg.how[k], sizeof cg.how[0], "%s", k == CG_PIDS ? "cgroup v1 pids.max"
                                                 : swap ? "cgroup v1 memory.limit_in_bytes, memory.memsw.limit_in_bytes"
                                                        : "cgroup v1 memory.limit_in_bytes (no swap accounting)");
    return 0;
}

/* Makes the run's cgroups; 0 when every limit asked for holds. */
static int cg_make(long mem_mb, long nproc, long uid)
{
    if (mem_mb <= 0 && nproc <= 0)
        return 0;
    if (cg_make_v2(mem_mb, nproc, uid) == 0)
        return 0;
    int bad = 0;
    if (mem_mb > 0)
        bad |= cg_make_v1(CG_MEM, mem_mb, uid) != 0;
    if (nproc > 0)
        bad |= cg_make_v1(CG_PIDS, nproc, uid) != 0;
    return bad ? -1 : 0;
}

/* Kills every member of cgroup dir until it has none (or after about a second);
 * returns the number of rounds that found one. */
static int cg_kill_dir(const char *dir)
{
    char path[PATH_MAX + 96], text[8192];
    int found = 0;
    snprintf(path, sizeof path, "%s/cgroup.kill", dir);
    if (cg.v2 && access(path, F_OK) == 0)
        write_text(path, "1");
    snprintf(path, sizeof path, "%s/cgroup.procs", dir);
    for (int round = 0; round < 200 && read_text(path, text, sizeof text) > 0; round++) {
        found++;
        for (char *l = strtok(text, "\n"); l != NULL; l = strtok(NULL, "\n"))
            kill((pid_t)atol(l), SIGKILL);
        while (waitpid(-1, NULL, WNOHANG) > 0) {
        }
        sleep_ms(5);
    }
    return found;
}

/* Removes cgroup dir, its members killed first (rmdir waits for the last to go). */
static void cg_remove_dir(const char *dir)
{
    cg_kill_dir(dir);
    for (int round = 0; round < 200 && rmdir(dir) != 0 && errno == EBUSY; round++) {
        while (waitpid(-1, NULL, WNOHANG) > 0) {
        }
        sleep_ms(5);
    }
}

/* Processes the cgroup's memory limit killed (the kernel's count). */
static long cg_oom_kills(void)
{
    char path[PATH_MAX + 96], text[1024];
    if (cg.dir[CG_MEM][0] == '\0')
        return 0;
    snprintf(path, sizeof path, "%s/%s", cg.dir[CG_MEM], cg.v2 ? "memory.events" : "memory.oom_control");
    if (read_text(path, text, sizeof text) <= 0)
        return 0;
    char *p = strstr(text, "oom_kill ");
    return p != NULL ? atol(p + 9) : 0;
}

/* Removes the cgroups an earlier jail for uid left (one killed before its end),
 * beside jail's own cgroups (version 2, and version 1 memory and pids). */
static void cg_sweep(long uid)
{
    char prefix[64], parents[3][PATH_MAX];
    snprintf(prefix, sizeof prefix, "chalk-jail.%ld.", uid);
    if (own_cgroup(NULL, parents[0], sizeof parents[0]) != 0)
        parents[0][0] = '\0';
    if (own_cgroup("memory", parents[1], sizeof parents[1]) != 0)
        parents[1][0] = '\0';
    if (own_cgroup("pids", parents[2], sizeof parents[2]) != 0)
        parents[2][0] = '\0';
    for (int k = 0; k < 3; k++) {
        DIR *d = parents[k][0] != '\0' ? opendir(parents[k]) : NULL;
        struct dirent *e;
        while (d != NULL && (e = readdir(d)) != NULL) {
            char dir[PATH_MAX + 300];
            if (strncmp(e->d_name, prefix, strlen(prefix)) != 0)
                continue;
            snprintf(dir, sizeof dir, "%.4000s/%.256s", parents[k], e->d_name);
            cg_remove_dir(dir);
        }
        if (d != NULL)
            closedir(d);
    }
}

/* In the child: joins the run's cgroups. */
static void cg_join(void)
{
    for (int k = 0; k < 2; k++) {
        char path[PATH_MAX + 96];
        if (cg.dir[k][0] == '\0' || (k == CG_PIDS && strcmp(cg.dir[CG_PIDS], cg.dir[CG_MEM]) == 0))
            continue;
        snprintf(path, sizeof path, "%s/cgroup.procs", cg.dir[k]);
        char pid[32];
        snprintf(pid, sizeof pid, "%ld", (long)getpid());
        if (write_text(path, pid) != 0)
            die("joining the run's cgroup");
    }
}

static void cg_remove(void)
{
    for (int k = 0; k < 2; k++)
        if (cg.dir[k][0] != '\0' && (k == CG_MEM || strcmp(cg.dir[CG_PIDS], cg.dir[CG_MEM]) != 0))
            cg_remove_dir(cg.dir[k]);
}

/* -Q: makes a cgroup with a small limit of kind k as a run would, and tries to go
 * over it from a child (memory: 16 MiB, and the child writes 128 MiB; processes:
 * 4, and the child starts 8): a limit the kernel accepts is not always one it
 * enforces. Writes what holds, or why not, to out; 0 when it holds. */
static int cg_probe(int k, char *out, size_t n)
{
    enum { LIMIT_MB = 16, TRY_MB = 128, LIMIT_N = 4, TRY_N = 8 };
    memset(&cg, 0, sizeof cg);
    if (cg_make(k == CG_MEM ? LIMIT_MB : 0, k == CG_PIDS ? LIMIT_N : 0, (long)getuid()) != 0) {
        snprintf(out, n, "%s", cg.how[k]);
        cg_remove();
        return 1;
    }
    pid_t c = fork();
    if (c == 0) {
        cg_join();
        if (k == CG_MEM) {
            volatile char *p = malloc((size_t)TRY_MB << 20);
            for (size_t i = 0; p != NULL && i < ((size_t)TRY_MB << 20); i += 4096)
                p[i] = 1;
            _exit(p != NULL ? 0 : 3);
        }
        pid_t kids[TRY_N];
        int started = 0;
        for (int i = 0; i < TRY_N; i++) {
            pid_t g = fork();
            if (g == 0) {
                pause();
                _exit(0);
            }
            if (g > 0)
                kids[started++] = g;
        }
        for (int i = 0; i < started; i++) {
            kill(kids[i], SIGKILL);
            waitpid(kids[i], NULL, 0);
        }
        _exit(started);
    }
    int st = 0;
    waitpid(c, &st, 0);
    int held = k == CG_MEM ? WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL /* the OOM killer */
                           : WIFEXITED(st) && WEXITSTATUS(st) < LIMIT_N;
    char how[256];
    snprintf(how, sizeof how, "%.255s", cg.how[k]);
    cg_remove();
    reap_all();
    if (held)
        snprintf(out, n, "%s", how);
    else
        snprintf(out, n, "none (%s is accepted but not enforced here: a probe went over it)", how);
    return !held;
}

/* ---- main ------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    long uid = -1, keep[16];
    int nkeep = 0, opt, probe = 0;
    double deadline_s = 0;
    long cpu_s = 0, as_mb = 0, nproc = 0, fsize_mb = 0, nofile = 0, cg_mem_mb = 0, cg_nproc = 0;
    while ((opt = getopt(argc, argv, "+u:t:c:m:p:f:n:x:M:P:Q")) != -1) {
        switch (opt) {
        case 'u': uid = (long)number(opt, optarg, 1, 4294967294.0); break;
        case 't': deadline_s = number(opt, optarg, 0.001, 1e6); break;
        case 'c': cpu_s = (long)number(opt, optarg, 1, 1e6); break;
        case 'm': as_mb = (long)number(opt, optarg, 1, 1e7); break;
        case 'p': nproc = (long)number(opt, optarg, 1, 1e6); break;
        case 'f': fsize_mb = (long)number(opt, optarg, 1, 1e7); break;
        case 'n': nofile = (long)number(opt, optarg, 4, 1e6); break;
        case 'M': cg_mem_mb = (long)number(opt, optarg, 1, 1e7); break;
        case 'P': cg_nproc = (long)number(opt, optarg, 1, 1e6); break;
        case 'Q': probe = 1; break;
        case 'x':
            if (nkeep < 16)
                keep[nkeep++] = (long)number(opt, optarg, 3, 1023);
            break;
        default:
            fprintf(stderr, "usage: jail -t S [-u UID] [-c S] [-m MB] [-p N] [-f MB] [-n N] "
                            "[-M MB] [-P N] [-x FD]... -- COMMAND ARG...\n"
                            "       jail -Q [-M MB] [-P N]\n");
            return 125;
        }
    }
    if (probe) {
        char mem[sizeof cg.how[0]] = "not asked", pids[sizeof cg.how[0]] = "not asked";
        int bad = 0;
        if (cg_mem_mb > 0)
            bad |= cg_probe(CG_MEM, mem, sizeof mem);
        if (cg_nproc > 0)
            bad |= cg_probe(CG_PIDS, pids, sizeof pids);
        printf("memory: %s; processes: %s\n", mem, pids);
        return bad ? 1 : 0;
    }
    if (deadline_s <= 0) {
        fprintf(stderr, "jail: no deadline (-t SECONDS, over 0): refused\n");
        return 125;
    }
    if (optind >= argc) {
        fprintf(stderr, "jail: no command\n");
        return 125;
    }
    if (uid > 0 && geteuid() != 0) {
        fprintf(stderr, "jail: -u needs root\n");
        return 125;
    }
    if (cg_make(cg_mem_mb, cg_nproc, uid > 0 ? uid : (long)getuid()) != 0) {
        fprintf(stderr, "jail: -M/-P: memory: %s; processes: %s\n", cg.how[CG_MEM], cg.how[CG_PIDS]);
        cg_remove();
        return 125;
    }
    if (prctl(PR_SET_CHILD_SUBREAPER, 1) != 0)
        die("PR_SET_CHILD_SUBREAPER");

    double start = now_s();
    pid_t child = fork();
    if (child < 0)
        die("fork");
    if (child == 0) {
        setpgid(0, 0);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        cg_join();
        int null = open("/dev/null", O_RDONLY);
        if (null < 0 || dup2(null, 0) < 0)
            die("/dev/null");
        for (int fd = 3; fd < 1024; fd++) {
            int kept = 0;
            for (int i = 0; i < nkeep; i++)
                kept |= keep[i] == fd;
            if (!kept)
                close(fd);
        }
        if (cpu_s > 0)
            set_limit(RLIMIT_CPU, (rlim_t)cpu_s);
        if (as_mb > 0)
            set_limit(RLIMIT_AS, (rlim_t)as_mb << 20);
        if (fsize_mb > 0)
            set_limit(RLIMIT_FSIZE, (rlim_t)fsize_mb << 20);
        if (nofile > 0)
            set_limit(RLIMIT_NOFILE, (rlim_t)nofile);
        set_limit(RLIMIT_CORE, 0);
        set_limit(RLIMIT_MSGQUEUE, 0);
        if (uid > 0) {
            if (setgroups(0, NULL) != 0 || setgid((gid_t)uid) != 0 || setuid((uid_t)uid) != 0)
                die("dropping to the sandbox uid");
            if (getuid() != (uid_t)uid || geteuid() != (uid_t)uid)
                die("still privileged");
        }
        if (nproc > 0) /* after setuid: counts the sandbox uid's processes */
            set_limit(RLIMIT_NPROC, (rlim_t)nproc);
        execvp(argv[optind], argv + optind);
        die(argv[optind]);
    }
    setpgid(child, child);

    int status = 0, result = 125, done = 0;
    while (!done) {
        pid_t w;
        while ((w = waitpid(-1, &status, WNOHANG)) > 0) { /* orphans are reaped too */
            if (w == child) {
                result = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
                done = 1;
                break;
            }
        }
        if (done || (w < 0 && errno == ECHILD))
            break;
        if (now_s() - start >= deadline_s) {
            kill(-child, SIGKILL);
            kill(child, SIGKILL);
            waitpid(child, &status, 0);
            result = 124;
            break;
        }
        sleep_ms(now_s() - start < 0.05 ? 1 : 5);
    }
    kill(-child, SIGKILL);
    long oom = cg_oom_kills();
    for (int k = 0; k < 2; k++)
        if (cg.dir[k][0] != '\0')
            cg_kill_dir(cg.dir[k]);
    if (uid > 0)
        kill_uid((uid_t)uid);
    reap_all();
    cg_remove();
    if (uid > 0) {
        remove_ipc((uid_t)uid);
        cg_sweep(uid);
    }
    if (oom > 0)
        fprintf(stderr, "jail: the memory of the whole run reached its limit (%ld MiB): %ld process(es) killed\n",
                cg_mem_mb, oom);
    return result;
}
