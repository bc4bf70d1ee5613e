// dl_iterate_phdr, dlinfo and RTLD_NODELETE are GNU extensions.
#define _GNU_SOURCE
#include "relavoi_loaded_objects.h"

#include <dlfcn.h>
#include <stddef.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct loaded_object {
    ElfW(Addr) base;
    char *name;
    int pinned;
};

struct object_list {
    struct loaded_object *objects;
    size_t count;
    size_t capacity;
};

// Called under the loader's lock: copies only, never calls into the loader.
static int list_object(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct object_list *list = data;
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 64;
        struct loaded_object *grown = realloc(list->objects, capacity * sizeof *grown);
        if (!grown) return 1;
        list->objects = grown;
        list->capacity = capacity;
    }
    char *name = strdup(info->dlpi_name ? info->dlpi_name : "");
    if (!name) return 1;
    list->objects[list->count++] = (struct loaded_object){.base = info->dlpi_addr, .name = name, .pinned = 0};
    return 0;
}

// dlopen(RTLD_NOLOAD | RTLD_NODELETE) of a loaded object marks it never to
// be unloaded (dlclose included), and returns only once any load of it in
// progress on another thread is complete (relocated, RELRO protected). The
// object pinned is the one listed if it is still at the same base: no two
// loaded objects share a base.
static void pin(struct loaded_object *object, int isExecutable) {
    if (isExecutable) {  // The executable is never unloaded.
        object->pinned = 1;
        return;
    }
    if (object->name[0] == '\0') return;
    void *handle = dlopen(object->name, RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
    if (!handle) return;  // Unloaded since it was listed.
    struct link_map *map = NULL;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_addr == object->base
        && strcmp(map->l_name, object->name) == 0)
        object->pinned = 1;
    // The handle's reference is kept on purpose (RTLD_NODELETE keeps the object anyway).
}

static int has_text_relocations(const struct dl_phdr_info *info) {
    for (ElfW(Half) index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        if (header->p_type != PT_DYNAMIC) continue;
        for (const ElfW(Dyn) *entry = (const ElfW(Dyn) *)(info->dlpi_addr + header->p_vaddr);
             entry->d_tag != DT_NULL; entry++) {
            if (entry->d_tag == DT_TEXTREL) return 1;
            if (entry->d_tag == DT_FLAGS && (entry->d_un.d_val & DF_TEXTREL)) return 1;
        }
    }
    return 0;
}

struct report {
    const struct object_list *pinned;
    void (*segment)(void *context, uintptr_t start, uintptr_t end);
    void *context;
    uintptr_t page;
    int count;
};

static int report_segments(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct report *report = data;
    const char *name = info->dlpi_name ? info->dlpi_name : "";
    int pinned = 0;
    for (size_t index = 0; index < report->pinned->count && !pinned; index++) {
        const struct loaded_object *object = &report->pinned->objects[index];
        pinned = object->pinned && object->base == info->dlpi_addr && strcmp(object->name, name) == 0;
    }
    if (!pinned || has_text_relocations(info)) return 0;
    for (ElfW(Half) index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *header = &info->dlpi_phdr[index];
        if (header->p_type != PT_LOAD || !(header->p_flags & PF_R) || (header->p_flags & PF_W)) continue;
        uintptr_t start = (info->dlpi_addr + header->p_vaddr) & ~(report->page - 1);
        uintptr_t end = (info->dlpi_addr + header->p_vaddr + header->p_memsz + report->page - 1) & ~(report->page - 1);
        report->segment(report->context, start, end);
        report->count++;
    }
    return 0;
}

int relavoi_pinned_readonly_segments(void (*segment)(void *context, uintptr_t start, uintptr_t end), void *context) {
    struct object_list list = {0};
    dl_iterate_phdr(list_object, &list);
    // The first object dl_iterate_phdr lists is the executable.
    for (size_t index = 0; index < list.count; index++) pin(&list.objects[index], index == 0);
    struct report report = {
        .pinned = &list, .segment = segment, .context = context, .page = (uintptr_t)sysconf(_SC_PAGESIZE)};
    dl_iterate_phdr(report_segments, &report);
    for (size_t index = 0; index < list.count; index++) free(list.objects[index].name);
    free(list.objects);
    return report.count;
}

static int read_generation(struct dl_phdr_info *info, size_t size, void *data) {
    unsigned long long *generation = data;
    // dlpi_adds and dlpi_subs exist when the loader's struct reaches them.
    if (size >= offsetof(struct dl_phdr_info, dlpi_subs) + sizeof info->dlpi_subs)
        *generation = info->dlpi_adds + info->dlpi_subs;
    return 1;  // One object tells.
}

unsigned long long relavoi_loaded_objects_generation(void) {
    unsigned long long generation = 0;
    dl_iterate_phdr(read_generation, &generation);
    return generation;
}
