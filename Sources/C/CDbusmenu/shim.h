#ifndef RELAVOI_CDBUSMENU_SHIM_H
#define RELAVOI_CDBUSMENU_SHIM_H
#include <libdbusmenu-glib/server.h>
#include <libdbusmenu-glib/menuitem.h>
#endif
